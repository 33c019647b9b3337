"""WebSocket routes, mounted by shuangkou_site.asgi.

Empty for now: live tables arrive in a later issue.
"""

websocket_urlpatterns: list = []
