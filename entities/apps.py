from django.apps import AppConfig
from django.urls import register_converter


class EntitiesConfig(AppConfig):
    name = "entities"
    verbose_name = "Entities and relations"

    def ready(self):
        from entities.converters import EntityIdConverter

        register_converter(EntityIdConverter, "entity_id")

        from entities.purgers import EntityPurger
        from recall_site.purging import register

        register(EntityPurger())
