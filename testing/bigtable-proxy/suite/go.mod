// The Cloud Bigtable client conformance suite, pinned: .ci/bigtable-conformance.sh
// builds its tests from here, and the proxy's build script generates the
// test proxy's types from its descriptor (descriptor.go).
module rowkey.invalid/bigtable-conformance

go 1.24.0

require (
	github.com/googleapis/cloud-bigtable-clients-test v0.0.5
	google.golang.org/protobuf v1.36.11
)

require (
	cloud.google.com/go/bigtable v1.40.0 // indirect
	github.com/davecgh/go-spew v1.1.2-0.20180830191138-d8f796af33cc // indirect
	github.com/googleapis/gax-go/v2 v2.15.0 // indirect
	github.com/pmezard/go-difflib v1.0.1-0.20181226105442-5d4384ee4fb2 // indirect
	github.com/stretchr/testify v1.11.1 // indirect
	golang.org/x/net v0.47.0 // indirect
	golang.org/x/sys v0.38.0 // indirect
	golang.org/x/text v0.31.0 // indirect
	google.golang.org/api v0.247.0 // indirect
	google.golang.org/genproto v0.0.0-20250603155806-513f23925822 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20250818200422-3122310a409c // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20250818200422-3122310a409c // indirect
	google.golang.org/grpc v1.74.2 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
