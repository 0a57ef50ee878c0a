"""kensnap for people: the command line, the browser app and all drawing."""
