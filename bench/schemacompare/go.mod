module github.com/seed417024ea/mcpcore/bench/schemacompare

go 1.26.0

replace github.com/seed417024ea/mcpcore => ../..

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/seed417024ea/mcpcore v0.0.0-00010101000000-000000000000
	github.com/xeipuuv/gojsonschema v1.2.0
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/xeipuuv/gojsonpointer v0.0.0-20180127040702-4e3ac2762d5f // indirect
	github.com/xeipuuv/gojsonreference v0.0.0-20180127040603-bd5ef7bd5415 // indirect
	golang.org/x/text v0.43.0 // indirect
)
