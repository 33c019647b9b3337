"""Settings per environment: base (shared), dev (`make run`), test (`make test`), prod.

Pick one with DJANGO_SETTINGS_MODULE; manage.py and asgi.py default to dev.
"""
