from django.contrib import admin
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.template.response import TemplateResponse
from django.urls import path

from kb import families
from kb.models import Entry, Revision
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

    def get_urls(self):
        accuracy = self.admin_site.admin_view(self.accuracy_view)
        return [path("accuracy/", accuracy, name="wizard_feedback_accuracy"), *super().get_urls()]

    def accuracy_view(self, request):
        """Per entry: how the engine did on the pastes the calibration did not see (figures
        of the last `manage.py refit`), beside the votes on the entry's current revision."""
        calibration = families.current().config.calibration
        held_out = {row["entry"]: row for row in calibration.held_out}
        current = Revision.objects.filter(entry=OuterRef("pk")).order_by("-number")
        entries = (
            Entry.objects.annotate(current=Subquery(current.values("pk")[:1]))
            .annotate(
                fixed=Count(
                    "feedback", filter=Q(feedback__revision=F("current"), feedback__fixed=True)
                ),
                not_fixed=Count(
                    "feedback", filter=Q(feedback__revision=F("current"), feedback__fixed=False)
                ),
            )
            .order_by("code")
        )
        rows = [(entry, held_out.get(entry.slug)) for entry in entries]
        context = {
            **self.admin_site.each_context(request),
            "title": "Accuracy by entry",
            "calibration": calibration,
            "rows": rows,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/wizard/accuracy.html", context)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
