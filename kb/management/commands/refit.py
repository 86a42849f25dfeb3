from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from kb import corpora
from kb.diagnosis import fitting, repository
from kb.taxonomy.family import render_family
from kb.taxonomy.reading import NotATaxonomyFolder, TaxonomyError, read_taxonomy

COMMON = "common"


class Command(BaseCommand):
    help = (
        "Fit the diagnosis calibration (how much each kind of evidence counts, and the "
        "confidence of a match) on the lab and field corpora, cross-validated by source "
        "repository; print the figures before and after. With --write, store it in the family "
        "file that holds it (else families/common/family.yaml, else the first family) and load the "
        "taxonomy."
    )

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="store the new calibration")
        parser.add_argument("--lab", type=Path, default=corpora.LAB)
        parser.add_argument("--field", type=Path, default=corpora.FIELD)
        parser.add_argument("--folds", type=int, default=fitting.FOLDS)
        parser.add_argument("--precision", type=float, default=fitting.PRECISION)

    def handle(self, write=False, lab=None, field=None, folds=None, precision=None, **options):
        try:
            samples = corpora.samples(lab, field)
        except (OSError, ValueError) as error:
            raise CommandError(str(error)) from None
        lab_count = sum(s.corpus == "lab" for s in samples)
        described = (
            f"{lab_count} lab files and {len(samples) - lab_count} field pastes from "
            f"{len({s.source for s in samples if s.corpus == 'field'})} sources, "
            f"{folds} folds by source, match at {precision:.0%} precision"
        )
        current = repository.current_engine().config.calibration
        self.stdout.write(f"Before ({current.fitted}), on all of it:")
        self._figures("lab", [fitting.predict(current, s) for s in samples if s.corpus == "lab"])
        self._figures("field", [fitting.predict(current, s) for s in samples if s.corpus != "lab"])

        evaluation = fitting.evaluate(samples, folds, precision, fitted=described)
        self.stdout.write(f"\nAfter ({described}):")
        for i, fold in enumerate(evaluation.folds, 1):
            self._figures(f"held-out fold {i}", fold)
        self._figures("held-out, all folds", evaluation.held_out)
        self._figures("lab", evaluation.lab)
        self.stdout.write(self._describe(evaluation.calibration))
        confused = fitting.confusions(evaluation.held_out)
        if confused:
            self.stdout.write("Held-out confusions (label -> ranked first instead):")
            for (label, top), count in sorted(confused.items()):
                self.stdout.write(f"  {label} -> {top} ×{count}")
        if write:
            path = self._write(evaluation.calibration)
            self.stdout.write(f"\nWrote {path}.")
            call_command("load_taxonomy", stdout=self.stdout, stderr=self.stderr)

    def _figures(self, title, predictions):
        values = fitting.figures(predictions)
        shown = ", ".join(
            f"{name} {value:.1%}" if name != "ECE" else f"ECE {value:.3f}"
            for name, value in values.items()
            if name not in ("pastes", "negatives") and value is not None
        )
        self.stdout.write(
            f"  {title:22} {values['pastes']:4} known, {values['negatives']:3} outside: {shown}"
        )

    def _describe(self, calibration):
        rows = ["Coefficients (utility per unit of strength):"]
        rows += [f"  {name:22} {value:8.3f}" for name, value in calibration.coefficients.items()]
        rows += [f"  none.{name:17} {value:8.3f}" for name, value in calibration.none.items()]
        rows.append(f"  match from confidence {calibration.match:.3f}")
        return "\n".join(rows)

    def _write(self, calibration):
        try:
            taxonomy = read_taxonomy(settings.TAXONOMY_DIR)
        except (NotATaxonomyFolder, TaxonomyError) as error:
            raise CommandError(f"{error}\nnothing was written") from None
        families = taxonomy.families
        holders = [f for f in families if f.document["calibration"]]
        common = [f for f in families if f.slug == COMMON]
        family = (holders or common or families)[0]
        family.document["calibration"] = fitting.as_part(calibration)
        family.path.write_text(render_family(family.document), "utf-8")
        return family.path
