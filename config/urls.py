from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from kb import api, login_throttle
from wizard import views as wizard_views

admin.site.site_header = "Faultline administration"
admin.site.site_title = "Faultline"

urlpatterns = [
    # Before the admin's own routes, so its login is reached only through the throttle.
    path("admin/login/", login_throttle.admin_login),
    path("admin/", admin.site.urls),
    path("api/diagnose", api.diagnose, name="api-diagnose"),
    path("api/openapi.json", api.openapi, name="api-openapi"),
    path("api/wizard/", wizard_views.step_json, name="api-wizard"),
    path("wizard/", include("wizard.urls")),
    # Browsers ask for /favicon.ico whatever a page links; the icon is the SVG base.html links.
    # Lazy: the static files' manifest is read on the first request, not at import.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"), permanent=True)),
    path("", include("kb.urls")),
]
