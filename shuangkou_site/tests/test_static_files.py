"""Production's static files (settings/prod.py): collectstatic with the manifest storage
takes every file, and the table page's ES modules load each other by their hashed names."""

import json
import re
from pathlib import PurePosixPath

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.templatetags.static import static

PROD_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "shuangkou_site.storage.StaticFilesStorage"},
}
IMPORT = re.compile(r"""(?:^|\n)\s*(?:import|\}|export)[^;]*?\bfrom\s*["']([^"']+)["']""")


@pytest.fixture
def collected(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = PROD_STORAGES
    call_command("collectstatic", "--noinput", verbosity=0)
    return tmp_path


def test_collectstatic_with_the_manifest_storage_hashes_every_file(collected):
    manifest = json.loads((collected / "staticfiles.json").read_text())["paths"]
    found = {path for finder in finders.get_finders() for path, _ in finder.list([])}

    assert found and found <= set(manifest)
    for original, hashed in manifest.items():
        assert hashed != original
        assert (collected / hashed).is_file(), hashed


def test_the_table_modules_import_each_other_by_hashed_names(collected):
    manifest = json.loads((collected / "staticfiles.json").read_text())["paths"]
    hashed_names = set(manifest.values())
    main = static("js/table/main.js")
    assert main != "/static/js/table/main.js"  # what the table page's script tag gets

    seen, pending = set(), [main.removeprefix("/static/")]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        assert name in hashed_names, name
        source = (collected / name).read_text(encoding="utf-8")
        for target in IMPORT.findall(source):
            resolved = str(PurePosixPath(name).parent / target).replace("/./", "/")
            pending.append(resolved)
    # main.js and every module it reaches, each by its hashed name.
    modules = {name.split("/")[-1].split(".")[0] for name in seen}
    assert {"main", "page", "render", "hand", "socket", "sync", "protocol",
            "readings"} <= modules
