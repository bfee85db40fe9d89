"""The click command line."""
