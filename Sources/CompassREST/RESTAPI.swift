/// `/rest/v1`: PostgREST's API. Placeholder until issue 9 lands.
public enum RESTAPI {}
