print("compass-worker: not built yet")
