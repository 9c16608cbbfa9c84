"""API routes, mounted at ``/api/``."""

from rest_framework.routers import DefaultRouter

from api.views import ChampionshipViewSet

app_name = "api"

router = DefaultRouter()
router.register("championships", ChampionshipViewSet, basename="championship")

urlpatterns = router.urls
