import json
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from kb import presentation
from kb.diagnosis import repository
from kb.paste import PasteError, accept_paste, decode_upload


class Command(BaseCommand):
    help = "Diagnose tracebacks or logs from files (- for standard input)."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--json", action="store_true", help="one JSON object per file per line")

    def handle(self, files, json=False, **options):
        failed = 0
        for name in files:
            try:
                text = self._read(name)
                diagnosis = repository.diagnose(accept_paste(text))
            except (OSError, PasteError) as error:
                failed += 1
                self._report_error(name, error, json)
                continue
            if json:
                answer = {"input": name, **presentation.as_json(diagnosis, _url_for)}
                self.stdout.write(_dumps(answer))
            else:
                self.stdout.write(self._summary(name, diagnosis))
        if failed:
            raise CommandError(f"{failed} of {len(files)} input(s) could not be diagnosed")

    def _read(self, name):
        if name == "-":
            return decode_upload(sys.stdin.buffer.read())
        with open(name, "rb") as handle:
            return decode_upload(handle.read())

    def _report_error(self, name, error, as_json):
        message = error.message if isinstance(error, PasteError) else str(error)
        if as_json:
            self.stdout.write(_dumps({"input": name, "error": message}))
        else:
            self.stderr.write(f"{name}: {message}")

    def _summary(self, name, diagnosis):
        best = diagnosis.best
        if best is None or diagnosis.verdict == "no_match":
            return f"{name}: no_match"
        return (
            f"{name}: {diagnosis.verdict} {best.code} {best.slug} "
            f"({best.confidence:.0%}) {_url_for(best.slug)}"
        )


def _url_for(slug):
    return settings.SITE_URL + reverse("kb:entry", args=[slug])


def _dumps(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=False)
