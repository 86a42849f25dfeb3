from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kb.taxonomy.reading import NotATaxonomyFolder, TaxonomyError, read_taxonomy


class Command(BaseCommand):
    help = (
        "Lint the taxonomy files (every family's family.yaml and entries): validity, the "
        "references between files and the content rules of kb/taxonomy/lint.py; "
        "load_taxonomy refuses exactly what this reports."
    )

    def add_arguments(self, parser):
        parser.add_argument("root", nargs="?", default=None, help="default: TAXONOMY_DIR")

    def handle(self, root=None, **options):
        root = Path(root) if root else settings.TAXONOMY_DIR
        try:
            taxonomy = read_taxonomy(root)
        except NotATaxonomyFolder as error:
            raise CommandError(str(error)) from None
        except TaxonomyError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(error.problems)} problem(s) in {root}") from None
        self.stdout.write(
            f"{len(taxonomy.families)} families, {len(taxonomy.entries)} entries, no problems"
        )
