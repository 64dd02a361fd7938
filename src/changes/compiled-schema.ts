// Written from changes/schema.ts by UPDATE_SCHEMAS=1 node --import tsx --test test/unit/published-schemas.test.ts
// (which fails while this differs): the change file's schema as ChangeValidator compiles it,
// so that checking a change file loads neither TypeBox nor the catalogue's schema modules.
export const CHANGE_FILE_SCHEMA: Readonly<Record<string, unknown>> = {
  "additionalProperties": false,
  "$defs": {
    "PolygonCoordinates": {
      "minItems": 1,
      "messages": {
        "minItems": "a polygon must have at least one ring"
      },
      "type": "array",
      "items": {
        "minItems": 4,
        "closedRing": true,
        "messages": {
          "minItems": "a ring must have at least 4 positions"
        },
        "type": "array",
        "items": {
          "messages": {
            "type": "a position must be exactly two numbers, [longitude, latitude]",
            "minItems": "a position must be exactly two numbers, [longitude, latitude]",
            "maxItems": "a position must be exactly two numbers, [longitude, latitude]",
            "additionalItems": "a position must be exactly two numbers, [longitude, latitude]"
          },
          "type": "array",
          "items": [
            {
              "minimum": -180,
              "maximum": 180,
              "messages": {
                "type": "longitude must be a finite number",
                "minimum": "longitude must be within [-180, 180]",
                "maximum": "longitude must be within [-180, 180]"
              },
              "type": "number"
            },
            {
              "minimum": -90,
              "maximum": 90,
              "messages": {
                "type": "latitude must be a finite number",
                "minimum": "latitude must be within [-90, 90]",
                "maximum": "latitude must be within [-90, 90]"
              },
              "type": "number"
            }
          ],
          "additionalItems": false,
          "minItems": 2,
          "maxItems": 2
        }
      }
    },
    "Geometry": {
      "type": "object",
      "discriminator": {
        "propertyName": "type"
      },
      "oneOf": [
        {
          "additionalProperties": false,
          "type": "object",
          "required": [
            "type",
            "coordinates"
          ],
          "properties": {
            "type": {
              "const": "MultiPolygon",
              "type": "string"
            },
            "coordinates": {
              "minItems": 1,
              "messages": {
                "minItems": "a MultiPolygon must have at least one polygon"
              },
              "type": "array",
              "items": {
                "$ref": "#/$defs/PolygonCoordinates"
              }
            }
          }
        },
        {
          "additionalProperties": false,
          "type": "object",
          "required": [
            "type",
            "coordinates"
          ],
          "properties": {
            "type": {
              "const": "Polygon",
              "type": "string"
            },
            "coordinates": {
              "$ref": "#/$defs/PolygonCoordinates"
            }
          }
        }
      ]
    },
    "Author": {
      "additionalProperties": false,
      "type": "object",
      "required": [
        "id",
        "username"
      ],
      "properties": {
        "id": {
          "minimum": 1,
          "maximum": 9007199254740991,
          "messages": {
            "minimum": "must be a positive integer",
            "maximum": "must be a safe integer (at most 2^53 - 1)"
          },
          "type": "integer"
        },
        "username": {
          "minLength": 1,
          "messages": {
            "minLength": "must not be empty"
          },
          "type": "string"
        }
      }
    },
    "Category": {
      "additionalProperties": false,
      "type": "object",
      "required": [
        "id",
        "name",
        "description",
        "thumbnail"
      ],
      "properties": {
        "id": {
          "minimum": 1,
          "maximum": 9007199254740991,
          "messages": {
            "minimum": "must be a positive integer",
            "maximum": "must be a safe integer (at most 2^53 - 1)"
          },
          "type": "integer"
        },
        "name": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "thumbnail": {
          "format": "media-path",
          "type": "string"
        }
      }
    },
    "Site": {
      "additionalProperties": false,
      "type": "object",
      "required": [
        "id",
        "name"
      ],
      "properties": {
        "id": {
          "minimum": 1,
          "maximum": 9007199254740991,
          "messages": {
            "minimum": "must be a positive integer",
            "maximum": "must be a safe integer (at most 2^53 - 1)"
          },
          "type": "integer"
        },
        "name": {
          "type": "string"
        }
      }
    },
    "Feature": {
      "additionalProperties": false,
      "type": "object",
      "required": [
        "id",
        "feature_type",
        "b_number",
        "b_name",
        "street",
        "postcode",
        "address",
        "current",
        "site",
        "categories",
        "tags",
        "geometry"
      ],
      "properties": {
        "id": {
          "minimum": 1,
          "maximum": 9007199254740991,
          "messages": {
            "minimum": "must be a positive integer",
            "maximum": "must be a safe integer (at most 2^53 - 1)"
          },
          "type": "integer"
        },
        "feature_type": {
          "type": "string",
          "enum": [
            "WHITECHAPEL_BUILDING",
            "GREATER_WHITECHAPEL",
            "PLACE",
            "OPEN_SPACE"
          ]
        },
        "b_number": {
          "type": [
            "string",
            "null"
          ]
        },
        "b_name": {
          "type": [
            "string",
            "null"
          ]
        },
        "street": {
          "type": [
            "string",
            "null"
          ]
        },
        "postcode": {
          "type": "string"
        },
        "address": {
          "type": "string"
        },
        "current": {
          "type": [
            "integer",
            "null"
          ]
        },
        "site": {
          "type": [
            "integer",
            "null"
          ]
        },
        "categories": {
          "type": "array",
          "items": {
            "type": "integer"
          }
        },
        "tags": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "search_str": {
          "messages": {
            "type": "must be a string when present (leave the key out rather than use null)"
          },
          "type": "string"
        },
        "geometry": {
          "$ref": "#/$defs/Geometry"
        }
      }
    },
    "Image": {
      "additionalProperties": false,
      "type": "object",
      "required": [
        "id",
        "feature",
        "author",
        "title",
        "file",
        "description",
        "copyright",
        "created"
      ],
      "properties": {
        "id": {
          "minimum": 1,
          "maximum": 9007199254740991,
          "messages": {
            "minimum": "must be a positive integer",
            "maximum": "must be a safe integer (at most 2^53 - 1)"
          },
          "type": "integer"
        },
        "feature": {
          "type": "integer"
        },
        "author": {
          "type": "integer"
        },
        "title": {
          "type": "string"
        },
        "file": {
          "format": "media-path",
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "copyright": {
          "type": "boolean"
        },
        "created": {
          "type": [
            "string",
            "null"
          ],
          "format": "date",
          "messages": {
            "type": "must be a date in the form YYYY-MM-DD or null"
          }
        },
        "published": {
          "messages": {
            "type": "must be a boolean when present (leave the key out rather than use null)"
          },
          "type": "boolean"
        }
      }
    },
    "Document": {
      "additionalProperties": false,
      "type": "object",
      "required": [
        "id",
        "feature",
        "author",
        "title",
        "body",
        "created",
        "last_edited"
      ],
      "properties": {
        "id": {
          "minimum": 1,
          "maximum": 9007199254740991,
          "messages": {
            "minimum": "must be a positive integer",
            "maximum": "must be a safe integer (at most 2^53 - 1)"
          },
          "type": "integer"
        },
        "feature": {
          "type": "integer"
        },
        "author": {
          "type": "integer"
        },
        "title": {
          "type": "string"
        },
        "body": {
          "type": "string"
        },
        "created": {
          "format": "date",
          "messages": {
            "type": "must be a date in the form YYYY-MM-DD"
          },
          "type": "string"
        },
        "last_edited": {
          "format": "date",
          "messages": {
            "type": "must be a date in the form YYYY-MM-DD"
          },
          "type": "string"
        },
        "published": {
          "messages": {
            "type": "must be a boolean when present (leave the key out rather than use null)"
          },
          "type": "boolean"
        }
      }
    },
    "Media": {
      "additionalProperties": false,
      "type": "object",
      "required": [
        "id",
        "feature",
        "author",
        "title",
        "url"
      ],
      "properties": {
        "id": {
          "minimum": 1,
          "maximum": 9007199254740991,
          "messages": {
            "minimum": "must be a positive integer",
            "maximum": "must be a safe integer (at most 2^53 - 1)"
          },
          "type": "integer"
        },
        "feature": {
          "type": "integer"
        },
        "author": {
          "type": "integer"
        },
        "title": {
          "type": "string"
        },
        "url": {
          "format": "http-url",
          "type": "string"
        },
        "published": {
          "messages": {
            "type": "must be a boolean when present (leave the key out rather than use null)"
          },
          "type": "boolean"
        }
      }
    }
  },
  "messages": {
    "type": "the top level must be a JSON object"
  },
  "type": "object",
  "required": [
    "format"
  ],
  "properties": {
    "format": {
      "messages": {
        "type": "must be \"heritage-changes/1\""
      },
      "const": "heritage-changes/1",
      "type": "string"
    },
    "authors": {
      "additionalProperties": false,
      "type": "object",
      "properties": {
        "put": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/Author"
          }
        },
        "remove": {
          "type": "array",
          "items": {
            "minimum": 1,
            "maximum": 9007199254740991,
            "messages": {
              "minimum": "must be a positive integer",
              "maximum": "must be a safe integer (at most 2^53 - 1)"
            },
            "type": "integer"
          }
        }
      }
    },
    "categories": {
      "additionalProperties": false,
      "type": "object",
      "properties": {
        "put": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/Category"
          }
        },
        "remove": {
          "type": "array",
          "items": {
            "minimum": 1,
            "maximum": 9007199254740991,
            "messages": {
              "minimum": "must be a positive integer",
              "maximum": "must be a safe integer (at most 2^53 - 1)"
            },
            "type": "integer"
          }
        }
      }
    },
    "sites": {
      "additionalProperties": false,
      "type": "object",
      "properties": {
        "put": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/Site"
          }
        },
        "remove": {
          "type": "array",
          "items": {
            "minimum": 1,
            "maximum": 9007199254740991,
            "messages": {
              "minimum": "must be a positive integer",
              "maximum": "must be a safe integer (at most 2^53 - 1)"
            },
            "type": "integer"
          }
        }
      }
    },
    "features": {
      "additionalProperties": false,
      "type": "object",
      "properties": {
        "put": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/Feature"
          }
        },
        "remove": {
          "type": "array",
          "items": {
            "minimum": 1,
            "maximum": 9007199254740991,
            "messages": {
              "minimum": "must be a positive integer",
              "maximum": "must be a safe integer (at most 2^53 - 1)"
            },
            "type": "integer"
          }
        }
      }
    },
    "images": {
      "additionalProperties": false,
      "type": "object",
      "properties": {
        "put": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/Image"
          }
        },
        "remove": {
          "type": "array",
          "items": {
            "minimum": 1,
            "maximum": 9007199254740991,
            "messages": {
              "minimum": "must be a positive integer",
              "maximum": "must be a safe integer (at most 2^53 - 1)"
            },
            "type": "integer"
          }
        }
      }
    },
    "documents": {
      "additionalProperties": false,
      "type": "object",
      "properties": {
        "put": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/Document"
          }
        },
        "remove": {
          "type": "array",
          "items": {
            "minimum": 1,
            "maximum": 9007199254740991,
            "messages": {
              "minimum": "must be a positive integer",
              "maximum": "must be a safe integer (at most 2^53 - 1)"
            },
            "type": "integer"
          }
        }
      }
    },
    "media": {
      "additionalProperties": false,
      "type": "object",
      "properties": {
        "put": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/Media"
          }
        },
        "remove": {
          "type": "array",
          "items": {
            "minimum": 1,
            "maximum": 9007199254740991,
            "messages": {
              "minimum": "must be a positive integer",
              "maximum": "must be a safe integer (at most 2^53 - 1)"
            },
            "type": "integer"
          }
        }
      }
    }
  }
};
