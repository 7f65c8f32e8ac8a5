package mcpcore

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Content blocks for a tool's Format and a prompt's messages. Each returns
// the SDK's own type, so that the two mix freely.

// Text is a text block.
func Text(text string) *mcp.TextContent { return &mcp.TextContent{Text: text} }

// Image is an image block: data is the raw image (sent base64-encoded),
// mimeType its type, such as "image/png".
func Image(data []byte, mimeType string) *mcp.ImageContent {
	return &mcp.ImageContent{Data: data, MIMEType: mimeType}
}

// Audio is an audio block: data is the raw audio (sent base64-encoded),
// mimeType its type, such as "audio/wav".
func Audio(data []byte, mimeType string) *mcp.AudioContent {
	return &mcp.AudioContent{Data: data, MIMEType: mimeType}
}

// EmbeddedText is a resource embedded in the result with its text, so that
// the client need not read it.
func EmbeddedText(uri, mimeType, text string) *mcp.EmbeddedResource {
	return &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uri, MIMEType: mimeType, Text: text}}
}

// EmbeddedBlob is a binary resource embedded in the result (sent
// base64-encoded).
func EmbeddedBlob(uri, mimeType string, blob []byte) *mcp.EmbeddedResource {
	return &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uri, MIMEType: mimeType, Blob: blob}}
}

// ResourceLink points to a resource the client can read with
// resources/read, without embedding it; name is its display name.
func ResourceLink(uri, name, mimeType string) *mcp.ResourceLink {
	return &mcp.ResourceLink{URI: uri, Name: name, MIMEType: mimeType}
}

// UserMessage is a prompt message from the user.
func UserMessage(content mcp.Content) *mcp.PromptMessage {
	return &mcp.PromptMessage{Role: "user", Content: content}
}

// AssistantMessage is a prompt message from the assistant.
func AssistantMessage(content mcp.Content) *mcp.PromptMessage {
	return &mcp.PromptMessage{Role: "assistant", Content: content}
}
