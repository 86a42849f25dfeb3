from django.db import migrations


def create_fts_table(apps, schema_editor):
    # The full-text index of entries on SQLite; PostgreSQL searches kb_entry.search_text itself.
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS kb_entry_fts USING fts5(body, tokenize='porter')"
        )


def drop_fts_table(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TABLE IF EXISTS kb_entry_fts")


class Migration(migrations.Migration):
    dependencies = [("kb", "0002_entry_search_text")]

    operations = [migrations.RunPython(create_fts_table, drop_fts_table)]
