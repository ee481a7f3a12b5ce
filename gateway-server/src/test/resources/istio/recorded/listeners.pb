
2026-11-28T08:55:13Z/1"5type.googleapis.com/envoy.config.listener.v3.Listener*:2026-11-28T08:55:13Z/185213ac0-5b1d-4cc9-ae76-9d2348b82808