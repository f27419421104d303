public enum DolphinCLI {}
