"""Root URLs: the public site, the organiser pages, log in/out, the API, the language
switch and the admin.

``/healthz`` is answered by ``config.middleware.HealthCheckMiddleware``.
"""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.views import after_login, favicon, set_language

urlpatterns = [
    path("", include("tournaments.web.urls")),
    path("organiser/", include("tournaments.web.organiser.urls")),
    path("referee/", include("referees.urls")),
    # Django's login/logout with the project's templates (templates/registration/).
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(next_page="after_login"),
        name="login",
    ),
    path("accounts/welcome/", after_login, name="after_login"),
    path(
        "accounts/logout/",
        auth_views.LogoutView.as_view(next_page="tournaments:home"),
        name="logout",
    ),
    path("api/", include("api.urls")),
    # The language switch: links (GET) on every page, or a form (POST).
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
]

# A form too large for DATA_UPLOAD_MAX_MEMORY_SIZE / _NUMBER_FIELDS gets the 413 page.
handler400 = "config.views.bad_request"
