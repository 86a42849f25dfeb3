from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kb.taxonomy.reading import NotATaxonomyFolder, TaxonomyError
from kb.taxonomy.store import dump_taxonomy


class Command(BaseCommand):
    help = "Write the taxonomy in the database back to fixture files (the format load reads)."

    def add_arguments(self, parser):
        parser.add_argument("root", nargs="?", default=None, help="default: TAXONOMY_DIR")

    def handle(self, root=None, **options):
        root = Path(root) if root else settings.TAXONOMY_DIR
        try:
            written = dump_taxonomy(root)
        except (NotATaxonomyFolder, TaxonomyError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"wrote {len(written)} file(s) to {root}")
