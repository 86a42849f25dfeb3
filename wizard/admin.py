from django.contrib import admin

from wizard.models import Feedback


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ["entry", "fixed", "causes", "fix", "framework", "revision", "created_at"]
    list_filter = ["fixed", "entry", "framework"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
