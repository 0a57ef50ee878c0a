"""kensnap for people: the command line, the browser app and all drawing.

Importing ``ui`` (which the ``kensnap`` command and the app do first) pins numpy and OpenBLAS before
they load (one BLAS thread, one kernel on every machine): see :mod:`vision.numeric_env`.
"""
import vision.numeric_env  # noqa: F401
