from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from kb.diagnosis.config import parse_config
from kb.diagnosis.repository import CONFIG_FILE
from kb.taxonomy.lint import lint_taxonomy
from kb.taxonomy.reading import TaxonomyError, read_taxonomy


class Command(BaseCommand):
    help = "Lint the taxonomy files: validity, then the content rules of kb/taxonomy/lint.py."

    def add_arguments(self, parser):
        parser.add_argument("root", nargs="?", default=None, help="default: TAXONOMY_DIR")

    def handle(self, root=None, **options):
        root = Path(root) if root else settings.TAXONOMY_DIR
        try:
            taxonomy = read_taxonomy(root)
            problems = lint_taxonomy(taxonomy, root)
        except TaxonomyError as error:
            problems = error.problems
        config_file = root / CONFIG_FILE
        _, config_problems = parse_config(config_file.read_text("utf-8"))
        problems += [f"{config_file}:{p.line}: {p.message}" for p in config_problems]
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} problem(s) in {root}")
        self.stdout.write(f"{len(taxonomy.entries)} entries, no problems")
