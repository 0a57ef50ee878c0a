"""kensnap for people: the command line, the browser app and all drawing.

Importing ``ui`` (which the ``kensnap`` command and the app do first) keeps OpenBLAS to one thread
unless the caller chose otherwise: our matrices are small (one photo's clue frames), and on this
2-core machine a second BLAS thread made them up to 30 times slower whenever other work was running.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
