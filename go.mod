module github.com/seed417024ea/mcpcore

go 1.26

require github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
