// The pod sandbox's process: it holds the pod's namespaces open until the kubelet
// stops it. The kubernetes test tier's pause image is this static binary alone.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
}
