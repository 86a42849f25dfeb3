from django.urls import path

from wizard import views

app_name = "wizard"

urlpatterns = [
    path("", views.step, name="step"),
    path("feedback", views.feedback, name="feedback"),
]
