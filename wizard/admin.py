from django.contrib import admin

from wizard.models import Feedback


class VoterFilter(admin.SimpleListFilter):
    """Votes cast before visitors were told apart may hold many from one person; newer ones
    count one per visitor per revision, so staff can read the two kinds apart."""

    title = "voter"
    parameter_name = "voter"

    def lookups(self, request, model_admin):
        return [("one", "one vote per visitor"), ("unknown", "before visitors were told apart")]

    def queryset(self, request, queryset):
        if self.value() == "one":
            return queryset.exclude(visitor="")
        if self.value() == "unknown":
            return queryset.filter(visitor="")
        return queryset


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ["entry", "fixed", "causes", "fix", "framework", "revision", "created_at"]
    list_filter = ["fixed", VoterFilter, "entry", "framework"]
    list_select_related = ["entry", "revision__entry"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
