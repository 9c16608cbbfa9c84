"""Settings of bench/pages.py's server: the project's, plus the cache_page baseline's URLs."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "pages_urls"
