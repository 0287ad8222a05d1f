/// `/api`: the apps' own endpoints. Placeholder until issue 9 lands.
public enum AppAPI {}
