from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kb.taxonomy.reading import NotATaxonomyFolder, TaxonomyError
from kb.taxonomy.store import load_taxonomy


class Command(BaseCommand):
    help = (
        "Load the taxonomy from fixture files into the database, all or nothing: files with any "
        "problem check_taxonomy reports are refused. "
        "Entries edited in the admin since their last load are kept unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument("root", nargs="?", default=None, help="default: TAXONOMY_DIR")
        parser.add_argument(
            "--force", action="store_true", help="overwrite entries edited in the admin"
        )

    def handle(self, root=None, force=False, **options):
        root = Path(root) if root else settings.TAXONOMY_DIR
        try:
            report = load_taxonomy(root, force=force)
        except NotATaxonomyFolder as error:
            raise CommandError(str(error)) from None
        except TaxonomyError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(error.problems)} problem(s); nothing was loaded.") from None
        for slug in report.kept_local_edits:
            self.stderr.write(
                self.style.WARNING(
                    f"kept {slug}: edited in the admin since it was last loaded "
                    "(run dump_taxonomy to bring the edit into fixtures/, or --force to discard it)"
                )
            )
        self.stdout.write(
            f"{len(report.created)} created, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, {len(report.kept_local_edits)} kept local edits"
        )
