"""The project's settings, with the load benchmark's CPU accounting first (``cpu.py``)."""

from config.settings import *  # noqa: F403
from config.settings import MIDDLEWARE

MIDDLEWARE = ["cpu.CpuMiddleware", *MIDDLEWARE]
