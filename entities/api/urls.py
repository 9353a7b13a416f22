from django.urls import path

from entities.api import views

urlpatterns = [
    path("entities", views.entity_list_view, name="api-entity-list"),
    path("entities/resolve", views.entity_resolve_view, name="api-entity-resolve"),
    path("entities/merge", views.entity_merge_view, name="api-entity-merge"),
    path("entities/<entity_id:public_id>", views.entity_detail_view, name="api-entity-detail"),
    path("entities/<entity_id:public_id>/graph", views.entity_graph_view, name="api-entity-graph"),
    path("entities/<entity_id:public_id>/aliases", views.entity_aliases_view, name="api-entity-aliases"),
    path("relations", views.relation_list_view, name="api-relation-list"),
    path("relations/<int:relation_id>", views.relation_detail_view, name="api-relation-detail"),
    path("contacts/import", views.contacts_import_view, name="api-contacts-import"),
]
