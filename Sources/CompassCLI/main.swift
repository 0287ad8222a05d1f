print("compass: not built yet")
