"""Static files in production: hashed names (cacheable for ever), compressed copies, served
by WhiteNoise (settings/prod.py)."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's manifest storage, rewriting the imports of our own ES modules.

    The table page's modules (static/js/table/) import each other by relative URL;
    unrewritten, the hashed main.js would import the unhashed ./page.js and the rest,
    served without the long cache, and a deploy could mix versions. Django's
    ``support_js_module_import_aggregation`` would rewrite imports in every ``*.js``,
    and there it fails: django_htmx's ext/hx-sse-2.js has ``import("../htmx")`` in a
    JSDoc type, a file that does not exist. So the same patterns apply to our modules
    only."""

    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        ("js/table/*.js",
         CompressedManifestStaticFilesStorage._js_module_import_aggregation_patterns[1]),
    )
