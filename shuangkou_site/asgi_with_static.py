"""The site's ASGI application with its static files served too, for the browser
test's server (common.testing.server_helpers.SITE_APP_WITH_STATIC): test settings run
with DEBUG off, where Django serves no static files (in production WhiteNoise serves
collectstatic's output). This is the handler ``runserver`` wraps the site in."""

from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from shuangkou_site.asgi import application as site_application

application = ASGIStaticFilesHandler(site_application)
