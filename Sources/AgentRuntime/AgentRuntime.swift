public enum AgentRuntimePlaceholder {}
