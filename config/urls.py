"""Root URLs: the public site, the API, the language switch and the admin.

``/healthz`` is answered by ``config.middleware.HealthCheckMiddleware``.
"""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.urls")),
    path("api/", include("api.urls")),
    # Django's set_language view (POST) at /i18n/setlang/.
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
