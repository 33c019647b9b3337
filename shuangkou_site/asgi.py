"""ASGI entry point: HTTP goes to Django, WebSockets to the Channels routes of `games`."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shuangkou_site.settings.dev")

# Set up Django before importing anything that touches models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.live.routing import websocket_urlpatterns  # noqa: E402
from shuangkou_site.metrics.process_watch import WatchedProtocolRouter  # noqa: E402

# Watched: the process's event-loop lag and pool figures (shuangkou_site.metrics).
application = WatchedProtocolRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns)),
        ),
    }
)

import gc  # noqa: E402
import sys  # noqa: E402

from games.live.timing import log_gc_pauses  # noqa: E402
from shuangkou_site.celery import warm_task_producer  # noqa: E402

warm_task_producer()

# Long-lived server: keep the startup objects out of every collection. The young
# generation is collected every 5,000 net allocations: at 50,000 each collection paused
# every table of the process for 40–100 ms (games.timing "gc-pause" lines) and made the
# load test's p99; at 5,000 the longest pauses are the rarer middle collections.
gc.freeze()
gc.set_threshold(5_000, 20, 1000)
log_gc_pauses()
# The database thread releases the GIL on every query and must get it back from the busy
# event loop: at the default 5 ms each action cost more than twice its
# quiet cost (docs/architecture.md).
sys.setswitchinterval(0.0005)
