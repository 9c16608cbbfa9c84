"""ASGI entry point: the site over HTTP and the live pages' sockets (Django Channels).

Serve it with daphne (``daphne config.asgi:application``) or uvicorn; ``runserver``
serves it too (daphne is the first installed app). README.md, "Production".
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django first: the routes below import models.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from tournaments.live.consumers import LiveConsumer  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        # A page of another site may not open our sockets (the Origin must be ours).
        "websocket": AllowedHostsOriginValidator(
            URLRouter([path("ws/live/", LiveConsumer.as_asgi())])
        ),
    }
)
