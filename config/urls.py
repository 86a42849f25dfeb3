from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Faultline administration"
admin.site.site_title = "Faultline"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("kb.urls")),
]
