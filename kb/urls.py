from django.urls import path

from kb import views

app_name = "kb"

urlpatterns = [
    path("", views.home, name="home"),
    path("diagnose", views.diagnose, name="diagnose"),
    path("go", views.go, name="go"),
    path("search/", views.search, name="search"),
    path("kb/", views.browse, name="browse"),
    path("kb/c/<slug:slug>/", views.category, name="category"),
    path("kb/<slug:slug>/", views.entry, name="entry"),
    path("kb/<slug:slug>/history/", views.history, name="history"),
    path("kb/<slug:slug>/history/<int:number>/", views.revision, name="revision"),
    path("e/<str:code>", views.entry_by_code, name="code"),
    path("d/<slug:key>", views.shared, name="shared"),
    path("d/<slug:key>/edit", views.shared_edit, name="shared-edit"),
    path("d/<slug:key>/delete", views.shared_delete, name="shared-delete"),
]
