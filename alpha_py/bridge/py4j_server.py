"""Bridge layer: the Py4J server a Java program starts (`python -m alpha_py.bridge.py4j_server
--java-port P --shm FILE --parent-pid PID`; token in $ALPHA_BRIDGE_TOKEN). It opens its callback
server on a free loopback port, points Java's callback client at it and registers its endpoint and the port of its
direct request channel (direct.py);
it exits when Java goes away (stdin closes or the parent pid changes). Imports py4j and the bridge."""
import argparse
import os
import sys
import threading
import time

from py4j.java_gateway import CallbackServerParameters, GatewayParameters, JavaGateway, JavaObject
from py4j.protocol import Py4JError

from ..backend.cpu_fused import one_malloc_arena
from . import codec
from .direct import start_server as start_direct
from .dispatch import Dispatcher
from .shm import SharedFile


class Py4JEndpoint:
    """Implements alpha.bridge.PyEndpoint for Py4J: requests and replies as compact text
    (codec.py's Py4J form); bulk data goes through the shared file."""

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher

    def invoke(self, request):
        name, ints, strs = request.split("\x01", 2)
        ok, r = self.dispatcher.handle(name, codec.parse_ints(ints), codec.parse_strs(strs) if strs else None)
        if not ok:
            return "E" + r[0] + "\n" + r[1]
        return codec.text_reply(r)

    def call(self, name, ints, objs):
        raise NotImplementedError("call(): JPype only; the Py4J backend calls invoke()")

    def staged(self):
        raise NotImplementedError("staged(): JPype only; the Py4J backend reads the shared file")

    class Java:
        implements = ["alpha.bridge.PyEndpoint"]


def _watch_parent(parent_pid, on_exit):
    """Exit when the JVM is gone: its end of our stdin closes (any death), or our parent changes."""
    def stdin_eof():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        on_exit()

    def parent_poll():
        while True:
            time.sleep(1.0)
            if os.getppid() != parent_pid:
                on_exit()

    threading.Thread(target=stdin_eof, name="alpha-bridge-stdin", daemon=True).start()
    if parent_pid:
        threading.Thread(target=parent_poll, name="alpha-bridge-parent", daemon=True).start()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m alpha_py.bridge.py4j_server")
    ap.add_argument("--java-port", type=int, required=True)
    ap.add_argument("--shm", required=True, help="the shared file Java created for tensor data")
    ap.add_argument("--parent-pid", type=int, default=0)
    a = ap.parse_args(argv)
    one_malloc_arena()            # requests are served on Py4J's threads: their arrays from the main arena
    token = os.environ.get("ALPHA_BRIDGE_TOKEN")
    shm = SharedFile(a.shm)
    client = []                 # the gateway client, once connected: Java objects arrive by Py4J id
    dispatcher = Dispatcher(shm, java_object=lambda oid: JavaObject(oid, client[0]))

    def bye():
        shm.close(unlink=True)
        os._exit(0)

    _watch_parent(a.parent_pid, bye)
    gateway = JavaGateway(
        gateway_parameters=GatewayParameters(address="127.0.0.1", port=a.java_port, auth_token=token,
                                             auto_convert=False),
        callback_server_parameters=CallbackServerParameters(address="127.0.0.1", port=0, auth_token=token,
                                                            daemonize=True, daemonize_connections=True))
    client.append(gateway._gateway_client)
    port = gateway.get_callback_server().get_listening_port()
    server = gateway.java_gateway_server
    server.resetCallbackClient(server.getCallbackClient().getAddress(), port)
    endpoint = Py4JEndpoint(dispatcher)
    # requests arrive on the direct channel (direct.py) unless Java turns it off (-Dalpha.py4j.direct=false): then
    # through Py4J's callback, the same invoke
    try:
        gateway.entry_point.register(endpoint, start_direct(endpoint.invoke, token))
    except Py4JError:             # an alpha-java from before the direct channel: its register(endpoint) only
        gateway.entry_point.register(endpoint)
    threading.Event().wait()      # serve callbacks until a watcher ends the process


if __name__ == "__main__":
    main()
