from django.contrib import admin
from django.urls import include, path

from kb import api

admin.site.site_header = "Faultline administration"
admin.site.site_title = "Faultline"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/diagnose", api.diagnose, name="api-diagnose"),
    path("api/openapi.json", api.openapi, name="api-openapi"),
    path("", include("kb.urls")),
]
