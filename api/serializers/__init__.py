"""Serializers of the API: plain data in and out, no rules (the services own them)."""
