"""Sends auth calls with the standard library and prints each reply as JSON: [[status, body], ...].

usage: auth_calls.py URL ANON_KEY EMAIL PASSWORD [REFRESH_TOKEN]
Signs in with the password; with a refresh token, also refreshes it (both at once, in threads).
"""
import json
import sys
import threading
import urllib.error
import urllib.request

url, anon, email, password = sys.argv[1:5]
refresh = sys.argv[5] if len(sys.argv) > 5 else None


def call(path, body):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("apikey", anon)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return [reply.status, reply.read().decode()]
    except urllib.error.HTTPError as error:
        return [error.code, error.read().decode()]


calls = [("/auth/v1/token?grant_type=password", {"email": email, "password": password})]
if refresh:
    calls.append(("/auth/v1/token?grant_type=refresh_token", {"refresh_token": refresh}))
replies = [None] * len(calls)


def run(index):
    replies[index] = call(*calls[index])


threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps(replies))
