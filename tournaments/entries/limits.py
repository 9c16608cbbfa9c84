"""How many entries one address may send: the entry form and the API share the count.

A fixed window in the cache (``ENTRY_FORM_LIMIT`` sendings per ``ENTRY_FORM_WINDOW``
seconds and address). The cache is an accelerator: while it is away nothing is counted
and every sending goes through, as the API's throttles do (docs/architecture.md).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache


def entry_sending_allowed(address: str | None) -> bool:
    """Count one sending from ``address``; False once it is past the limit."""
    key = f"entries:sent:{address or 'unknown'}"
    cache.add(key, 0, timeout=settings.ENTRY_FORM_WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # the cache is away, or lost the key meanwhile
        return True
    return count <= settings.ENTRY_FORM_LIMIT


def entry_window_minutes() -> int:
    """The window of the limit in minutes, for the sentence that explains a refusal."""
    return max(1, settings.ENTRY_FORM_WINDOW // 60)
