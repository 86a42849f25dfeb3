from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from kb.taxonomy.store import dump_taxonomy


class Command(BaseCommand):
    help = "Write the taxonomy in the database back to fixture files (the format load reads)."

    def add_arguments(self, parser):
        parser.add_argument("root", nargs="?", default=None, help="default: TAXONOMY_DIR")

    def handle(self, root=None, **options):
        root = Path(root) if root else settings.TAXONOMY_DIR
        written = dump_taxonomy(root)
        self.stdout.write(f"wrote {len(written)} file(s) to {root}")
