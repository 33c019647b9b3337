"""Test support every app's tests may use (it imports no app): servers of the site in
subprocesses (``server_helpers``) and the translation checks (``i18n_checks``)."""
