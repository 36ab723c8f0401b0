// CoreDNS with only the plugins the kubernetes test tier's Corefile uses (scripts/lib/kube-cluster.ts):
// the cloud and tracing plugins of its full build, most of that build's compile time, are left out.
// go.mod pins CoreDNS, and every module it builds from, at CoreDNS's own versions.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/template"
)

// The plugins in CoreDNS's own order (its plugin.cfg): the order they handle a query in.
var directives = []string{"bind", "errors", "template", "kubernetes"}

func init() {
	dnsserver.Directives = directives
}

func main() {
	coremain.Run()
}
