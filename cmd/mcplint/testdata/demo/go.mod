module example.com/demo

go 1.26

require github.com/seed417024ea/mcpcore v0.0.0

// The test copies this module and points it at the repository by absolute
// path; from here, the repository is four directories up.
replace github.com/seed417024ea/mcpcore => ../../../..
