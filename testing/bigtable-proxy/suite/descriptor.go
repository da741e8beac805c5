// Command descriptor writes the descriptor set of the Bigtable conformance
// suite's test proxy service (test_proxy.proto and every file it imports,
// dependencies first) as a serialized google.protobuf.FileDescriptorSet,
// to the path given as its one argument. The suite ships the service only
// as generated Go; the descriptor embedded there is the suite's own, of
// the version pinned in go.mod, so the Rust proxy is generated from the
// very version of the suite that runs against it.
package main

import (
	"fmt"
	"os"

	"github.com/googleapis/cloud-bigtable-clients-test/testproxypb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: descriptor OUT.fds")
		os.Exit(2)
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		imports := f.Imports()
		for i := 0; i < imports.Len(); i++ {
			add(imports.Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(f))
	}
	add(testproxypb.File_test_proxy_proto)
	out, err := proto.MarshalOptions{Deterministic: true}.Marshal(set)
	if err != nil {
		fmt.Fprintln(os.Stderr, "descriptor:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "descriptor:", err)
		os.Exit(1)
	}
}
