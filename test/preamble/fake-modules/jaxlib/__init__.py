__version__ = "0.11.2"
