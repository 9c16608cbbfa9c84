"""API views by resource: thin, they call the selectors and services of ``tournaments``."""
