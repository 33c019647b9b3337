"""The site's Prometheus instruments, which code of every layer records into (the
action clock of the live path, lags, pools); the endpoint that reads them out is the
site's (shuangkou_site.metrics)."""
