public enum MCPServerPlaceholder {}
